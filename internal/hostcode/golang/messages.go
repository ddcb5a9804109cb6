package golang

import (
	"go/ast"
	"strings"
)

// inMessage reports whether e is an argument of a call that writes a message
// (an error, a log line) or takes a pattern (a regular expression, a mocked
// database's expected statement): "update stock: %w" is not SQL, and
// "SELECT \* FROM t" is not run.
func (x *goExtractor) inMessage(e ast.Node) bool {
	child, p := x.up(e)
	call, ok := p.(*ast.CallExpr)
	if !ok || ast.Node(call.Fun) == child {
		return false
	}
	return x.isMessageCall(call)
}

// goMessageMethods are functions and methods that take text for people.
var goMessageMethods = map[string]bool{
	"Print": true, "Printf": true, "Println": true, "Fatal": true, "Fatalf": true, "Fatalln": true, "Fatalw": true,
	"Panic": true, "Panicf": true, "Panicln": true, "Panicw": true, "DPanic": true, "DPanicf": true, "DPanicw": true,
	"Error": true, "Errorf": true, "Errorw": true, "Errorln": true, "Errorv": true,
	"Warn": true, "Warnf": true, "Warnw": true, "Warnln": true, "Warning": true, "Warningf": true,
	"Info": true, "Infof": true, "Infow": true, "Infoln": true, "Infov": true,
	"Debug": true, "Debugf": true, "Debugw": true, "Debugln": true, "Debugv": true,
	"Trace": true, "Tracef": true, "Log": true, "Logf": true, "Skip": true, "Skipf": true,
	"Slow": true, "Slowf": true, "Slowv": true, "Severe": true, "Severef": true, "Alert": true, "Stat": true, "Statf": true,
	"Msg": true, "Msgf": true, "Wrap": true, "Wrapf": true, "WithMessage": true, "WithMessagef": true,
}

// goMessagePackages are the packages (by the last element of their path)
// whose functions all take text for people: error constructors and loggers.
var goMessagePackages = map[string]bool{
	"errors": true, "xerrors": true, "xerr": true, "errorx": true, "errx": true, "errs": true, "errcode": true,
	"log": true, "slog": true, "logx": true, "logrus": true, "glog": true, "klog": true, "zerolog": true,
	"zap": true, "zlog": true, "xlog": true, "logger": true, "logging": true, "hclog": true,
}

// goStatusFuncs are the functions of a gRPC-style status package that make
// an error from a message.
var goStatusFuncs = map[string]bool{"Error": true, "Errorf": true, "New": true, "Newf": true}

// goPatternMethods take a regular expression of the SQL a test expects
// (go-sqlmock), not SQL to run.
var goPatternMethods = map[string]bool{"ExpectQuery": true, "ExpectExec": true, "ExpectPrepare": true}

// isMessageCall reports whether call takes text that is not run as SQL: a
// message, a test's name, a pattern.
func (x *goExtractor) isMessageCall(call *ast.CallExpr) bool {
	switch fun := goUnparen(call.Fun).(type) {
	case *ast.Ident:
		if (fun.Name == "panic" || fun.Name == "print" || fun.Name == "println") && x.universal(fun) {
			return true
		}
		return goErrorConstructor(fun.Name)
	case *ast.SelectorExpr:
		name := fun.Sel.Name
		if path := x.pkgOf(fun); path != "" {
			switch base := goPackageBase(path); {
			case base == "fmt":
				return strings.HasPrefix(name, "Print") || strings.HasPrefix(name, "Fprint") || name == "Errorf"
			case base == "status" && goStatusFuncs[name], goMessagePackages[base], base == "regexp":
				return true
			}
		}
		if name == "Run" && len(call.Args) == 2 {
			if _, ok := goUnparen(call.Args[1]).(*ast.FuncLit); ok {
				return true // t.Run("update stock", func(t *testing.T) {…}): a test's name
			}
		}
		return goMessageMethods[name] || goPatternMethods[name] || goErrorConstructor(name)
	}
	return false
}

// goErrorConstructor reports whether a function's name says it makes an
// error from a message: NewError, NewErrMsg, NewErrCodeMsg, NewCodeError,
// newErr.
func goErrorConstructor(name string) bool {
	return (strings.HasPrefix(name, "New") || strings.HasPrefix(name, "new")) && strings.Contains(name, "Err")
}
