package stmt

import "strings"

// MapperCall is an entity write in host code: a call of a MyBatis Generator
// write method (`skuStockMapper.updateByPrimaryKeySelective(sku)`), or of an
// ORM's (MyBatis-Plus updateById, JPA save, GORM Save, a goctl model's
// Update; Framework says which), with what the method
// that makes it shows about the record and the Example it passes. Its SQL
// stands in the mapper XML; guard lint joins the two through the mapper
// type, which is the XML's namespace.
type MapperCall struct {
	// Mapper is the receiver's declared type, qualified by the file's
	// import when it has one (com.x.mapper.PmsSkuStockMapper).
	Mapper string
	// Method is the generated method called: updateByPrimaryKey[Selective],
	// updateByExample[Selective] or deleteByExample.
	Method string
	// Entity is the simple type name of the record passed (PmsSkuStock);
	// empty for deleteByExample.
	Entity string
	// Record is the local variable passed as the record; empty for
	// deleteByExample.
	Record string
	// RecordRead is the read the record itself came from, nil when it was
	// not read in the method (a new object, a parameter).
	RecordRead *MapperRead
	// Sets are the setter calls on the record between its declaration and
	// the call, in order.
	Sets []PropertySet
	// Criteria are the criteria the Example of a ByExample call was given
	// in the method; meaningful only when CriteriaKnown.
	Criteria []Criterion
	// CriteriaKnown reports whether the Example is a local object made in
	// the method whose every use guard understands, so that Criteria lists
	// everything the WHERE may hold.
	CriteriaKnown bool
	// HostMethod names the Java (or Go) method that makes the call.
	HostMethod string
	// Framework names what turns the call into SQL: "MyBatis Generator"
	// (empty means that too), "MyBatis-Plus", "JPA", "GORM", "goctl". It is
	// for the readers and linkers; the rules read Kind.
	Framework string
	// Kind says what the call is to the rules.
	Kind CallKind
	// Statement is what findings call the statement the call ends in when
	// no file holds its text (the UPDATE an ORM sends, in words); empty
	// names it by the mapper type and method.
	Statement string
	// Advice is how the framework's users make such a write safe, for the
	// fixes of the findings at the call; nil gives a generated mapper's.
	Advice *Advice
	// Result names the method as the fix of a dropped result names it
	// (BaseMapper.updateById, IService.updateById) when the call returns
	// the count of the rows it changed, or whether it changed one; empty
	// when guard does not follow the call's result.
	Result string
	// Table is the table the call writes when the host code names it (an
	// @TableName/@Table annotation, a GORM TableName method, a goctl
	// model's table); empty when it comes from the mapper XML or the
	// entity's name.
	Table     string
	Line, Col int
	EndLine   int
	// Via is set on a call of a service method that may wrap a generated
	// write (`couponUserService.update(couponUser)`, File.ServiceCalls):
	// the call as written. Mapper is then the receiver's declared type and
	// Method the service method, until lint resolves the call through the
	// wrappers of the run (WrapperMethod); a resolved call keeps Via and
	// names the mapper and the generated write it ends in.
	Via string
	// ViaArgs is the number of arguments of a Via call, and ViaRecord the
	// index of the one passed as Record.
	ViaArgs, ViaRecord int
	// Request is, for a goctl model call made by a go-zero RPC server's
	// logic method (`func (l *UpdateLogic) Update(in *pb.UpdateReq)`), that
	// method's request type qualified by its import path, so that lint can
	// join a client's call of the RPC to it; empty elsewhere.
	Request string
	// Columns maps the properties of Sets to the columns the entity class
	// declares for them (@TableField, @TableId) where that is not the
	// default snake_case; nil for MyBatis Generator.
	Columns map[string]string
	// VersionCAS is set on a MyBatis-Plus updateById whose entity has a
	// @Version property holding the version of a read: the
	// OptimisticLockerInnerInterceptor then adds `version = ?` to the WHERE.
	VersionCAS bool
	// ResultDiscarded reports whether the call is a statement of its own,
	// its int or boolean result dropped.
	ResultDiscarded bool
	// RecordCalls are the calls of the record's own methods, other than
	// setters and getters, between its declaration and the call
	// (`stock.decrease(n)`): what they assign, the entity's class says.
	RecordCalls []RecordCall
	// Context is what encloses the call in its method (see Fragment.Context).
	Context *Context
	// Copy is set when the record's properties were copied from another
	// object before the call (`BeanUtils.copyProperties(param, product)`,
	// `modelMapper.map(dto, Order.class)`, a MapStruct converter): the
	// driver adds a set for each property the source's class declares, once
	// every file is read.
	Copy *BeanCopy
	// Rewrite is set when the call's UPDATE writes back every column of
	// the record as it was read, not only those the code set: nil when it
	// writes only those, or guard cannot tell.
	Rewrite *Rewrite
}

// BeanCopy is a copy of an object's properties into the record of a write.
type BeanCopy struct {
	// Class is the simple type of the source object, Package the file's
	// import of it ("" when it does not import it).
	Class, Package string
	// Source is the source as written (`param`), Via the copy's call
	// (`BeanUtils.copyProperties`).
	Source, Via string
	Line        int
	// Ignored are the properties the copy leaves out (Spring's
	// ignoreProperties).
	Ignored []string
}

// Rewrite is an ORM's UPDATE of every column of a record from the values
// read (JPA on an entity without @DynamicUpdate): a concurrent change to a
// column the code did not set is undone too.
type Rewrite struct {
	// Columns are the columns the UPDATE writes, as the record maps them.
	Columns []string
	// Text says what rewrites them, for a finding: "save rewrites every
	// column of Order from the values read at line 14".
	Text string
	// Cure says how the framework's users stop it: "add @Version".
	Cure string
}

// CallKind says what a call of host code is to the rules.
type CallKind uint8

// The kinds of calls.
const (
	// CallWritesRecord writes the record the code filled, by a statement
	// of a mapper or an ORM: the rules judge what the code set before it.
	CallWritesRecord CallKind = iota
	// CallRunsStatement runs a statement the query rules judge where it is
	// written (a Spring Data @Query method): only what the code does with
	// its result is the call's.
	CallRunsStatement
	// CallModelMethod calls a method of a model whose statement the
	// project's code holds (a goctl model): MapperIndex.ModelStatements
	// finds it.
	CallModelMethod
	// CallRequest sends a request to a server whose handler writes (a
	// go-zero RPC call): MapperIndex.ServerCalls finds the handler's calls.
	CallRequest
)

// Advice is how a framework's users make an entity write safe: one
// conditional statement, or a compare of the version read.
type Advice struct {
	// Via names how the framework sends one conditional statement of the
	// user's ("a GORM chain (…)").
	Via string
	// CAS says how it compares the version read: %[1]s stands for the
	// version column, %[2]s for it as a Go field name.
	CAS string
	// Counter and State, when set, are the whole fixes of a finding on a
	// counter and on a state column, in place of those made of Via and CAS.
	Counter, State string
}

// RecordCall is a call of a method on a record: `stock.decrease(n)`.
type RecordCall struct {
	Method string
	// Text is the call's source, on one line.
	Text string
	Line int
}

// Column is the column property p is written to.
func (c *MapperCall) Column(p string) string {
	if col, ok := c.Columns[p]; ok {
		return col
	}
	return PropertyColumn(p)
}

// MapperRead is where a local object was read through a generated mapper:
// `mapper.selectByPrimaryKey(id)`, `mapper.selectByExample(ex).get(0)`, or
// the variable of `for (X v : mapper.selectByExample(ex))`.
type MapperRead struct {
	Variable string
	Method   string // selectByPrimaryKey, selectByExample…
	Line     int
	// Service is set on a read through a service method that may wrap a
	// generated read (`couponUserService.findById(id)`): the receiver's
	// declared type, qualified like a MapperCall's Mapper; Method is then
	// the service method, Via the call as written and Args its number of
	// arguments. lint keeps such a read only when the method is a read
	// wrapper (WrapperMethod), and drops it otherwise.
	Service string
	Via     string
	Args    int
	// List reports a for-each variable over the rows a service method
	// returned: lint keeps it only when the method returns a list select.
	List bool
}

// ValueForm says what a setter's argument is made of.
type ValueForm uint8

// The forms of a setter argument.
const (
	// ValueOther is anything guard does not classify: a parameter, a call.
	ValueOther ValueForm = iota
	// ValueLiteral is a literal or a constant (a number, an ALL_CAPS name,
	// Enum.VALUE).
	ValueLiteral
	// ValueFromRead is computed from a getter of an object read through a
	// mapper in the same method (`sku.getStock() - n`).
	ValueFromRead
)

// PropertySet is one setter call on a record: `sku.setLockStock(…)`.
type PropertySet struct {
	// Property is the property set, as its getter names it (lockStock).
	Property string
	Form     ValueForm
	// Read is the read a ValueFromRead value came from.
	Read *MapperRead
	// CopiesRead reports whether the argument is the same property's getter
	// of the object read, unchanged (`user.setState(old.getState())`): the
	// write keeps the value read rather than moving it.
	CopiesRead bool
	// Text is the argument's source, on one line.
	Text string
	Line int
	// Decrement is set when the value is the property read minus an amount
	// (`p.Stock -= n`, `p.Stock = p.Stock - n`): the code decrements the
	// column, which makes it a counter for the vocabulary inference.
	Decrement bool
	// Param is the field of the host method's request parameter the value
	// copies (`res.Stock = in.Stock` is "Stock"), set with MapperCall.Request.
	Param string
	// Check, when set, says where the code compared the value the set
	// moves from out of the statement's sight, for a finding: the check of
	// status inside Order.ship() runs on the value read at line 14.
	Check string
	// Optional reports that the set runs only when the value is present
	// (`if (req.getStatus() != null) e.setStatus(req.getStatus())`, `if
	// in.Status != 0 { res.Status = in.Status }`): the partial update of an
	// edit form, which copies what the caller sent. Consulted reports that
	// the method read the property of the record before setting it. An
	// optional copy into a record whose old value the code never looked at
	// moves no state the code checked: it is an edit, not a transition.
	Optional, Consulted bool
}

// Criterion is one condition added to an Example's Criteria:
// `andStatusEqualTo(0)` is Property "status", Op "EqualTo".
type Criterion struct {
	Property string
	Op       string
}

// PropertyColumn is the column MyBatis Generator maps a property to under
// its default naming: camelCase to snake_case (lockStock → lock_stock).
func PropertyColumn(property string) string {
	var b strings.Builder
	for i, r := range property {
		if r >= 'A' && r <= 'Z' {
			if i > 0 {
				b.WriteByte('_')
			}
			b.WriteRune(r - 'A' + 'a')
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}
