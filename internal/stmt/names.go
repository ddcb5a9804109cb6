package stmt

// The frameworks of entity writes (MapperCall.Framework). Empty means
// MyBatis Generator; "MyBatis-Plus" names MyBatis-Plus.
const (
	// FrameworkGoctl is a call of a goctl model method with a record.
	FrameworkGoctl = "goctl"
	// FrameworkGoZeroRPC is a call of a go-zero RPC client with a request
	// struct built in the call; Mapper is the request type qualified by its
	// import path.
	FrameworkGoZeroRPC = "go-zero RPC"
	// FrameworkGORM is a GORM write of a model (Save, Updates).
	FrameworkGORM = "GORM"
	// FrameworkJPA is an entity write through a Spring Data repository's
	// save/saveAndFlush: JPA sends an UPDATE of the entity's row.
	FrameworkJPA = "JPA"
	// FrameworkSpringData is a call of a repository method whose statement
	// is the method's @Query; only calls that drop its result are recorded.
	FrameworkSpringData = "Spring Data"
	// FrameworkJPAFlush is an entity read in a @Transactional method and
	// changed there without a save: JPA's dirty checking sends the UPDATE of
	// its row when the transaction commits.
	FrameworkJPAFlush = "JPA dirty checking"
)

// ModifyingVoid starts the Exec.Method of a void @Modifying repository
// method's statement: nobody receives the count of rows it changed.
const ModifyingVoid = "@Modifying void "

// BuilderJPQL is the Fragment.Builder of a Spring Data @Query in JPQL.
const BuilderJPQL = "Spring Data @Query (JPQL)"

// VariantAbsent is the Variant of a dynamic MyBatis statement rendered with
// every optional condition absent.
const VariantAbsent = "with every optional condition absent"

// EmptyWhenAbsent is the Unchecked reason of a dynamic statement's variant
// that renders nothing, every optional condition absent (a statement whose
// whole text stands in <if> elements, one per database, say).
const EmptyWhenAbsent = "statement is empty when every optional condition is absent"
