// The shop's go-zero stock service, a module of its own so that the shop's
// Go packages build without go-zero; guard lints it with the rest.
module shop/gozero

go 1.22

require github.com/zeromicro/go-zero v1.6.0
