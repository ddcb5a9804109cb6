package mybatis

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestClauseSetsChecked checks which values set as an Example's clause are
// checked before use, each with the twin that is not: the lines listed are
// the setters left open.
func TestClauseSetsChecked(t *testing.T) {
	const validator = `package shop.validation;
import java.util.Set;
import javax.validation.ConstraintValidator;
import javax.validation.ConstraintValidatorContext;
public class SortValidator implements ConstraintValidator<SortField, String> {
    private static final Set<String> ALLOWED = Set.of("id", "name", "create_time");
    @Override
    public boolean isValid(String value, ConstraintValidatorContext context) {
        return value == null || ALLOWED.contains(value);
    }
}
`
	const constraint = `package shop.validation;
import javax.validation.Constraint;
@Target({ElementType.FIELD, ElementType.PARAMETER})
@Retention(RetentionPolicy.RUNTIME)
@Constraint(validatedBy = SortValidator.class)
public @interface SortField {
    String message() default "bad sort";
}
`
	tests := []struct {
		name  string
		files map[string]string
		sets  int // the setters the files hold
		open  []int
	}{
		{"@Pattern on the parameter", map[string]string{"S.java": `package shop;
class S {
    List<A> a(@RequestParam @Pattern(regexp = "(id|name)( (asc|desc))?") String sort) {
        AExample example = new AExample();
        example.setOrderByClause(sort);
    }
    List<A> b(@Pattern(regexp = ".*") String sort, @Size(max = 20) String order) {
        AExample example = new AExample();
        example.setOrderByClause(sort);
        example.setOrderByClause(order);
    }
    List<A> c(@Pattern(regexp = "[a-z_]+") String sort, @Pattern(regexp = "asc|desc") String dir) {
        new AExample().setOrderByClause(sort + " " + dir);
    }
}
`}, 4, []int{9, 10}},
		{"custom constraint whose validator tests a constant set", map[string]string{
			"SortValidator.java": validator, "SortField.java": constraint, "S.java": `package shop;
class S {
    List<A> a(@SortField String sort, @NotBlank String other) {
        AExample example = new AExample();
        example.setOrderByClause(sort);
        example.setOrderByClause(other);
    }
}
`}, 2, []int{6}},
		{"custom constraint whose validator accepts anything", map[string]string{
			"SortField.java": constraint, "S.java": `package shop;
class S {
    List<A> a(@SortField String sort) {
        new AExample().setOrderByClause(sort);
    }
}
`, "SortValidator.java": `package shop.validation;
public class SortValidator implements ConstraintValidator<SortField, String> {
    public boolean isValid(String value, ConstraintValidatorContext context) {
        if (value == null) return true;
        return true;
    }
}
`}, 1, []int{4}},
		{"validator with a switch, composed constraint", map[string]string{
			"SortField.java": constraint, "S.java": `package shop;
class S {
    List<A> a(@SortField String sort, @Dir String dir) {
        new AExample().setOrderByClause(sort + " " + dir);
    }
}
`, "SortValidator.java": `package shop.validation;
public class SortValidator implements ConstraintValidator<SortField, String> {
    public boolean isValid(String value, ConstraintValidatorContext context) {
        switch (value) {
        case "id":
        case "name":
            return true;
        default:
            return false;
        }
    }
}
`, "Dir.java": `package shop.validation;
@Pattern(regexp = "asc|desc")
@Constraint(validatedBy = {})
public @interface Dir {}
`}, 1, nil},
		{"a DTO's field, read through its getter", map[string]string{
			"PageQuery.java": `package shop;
public class PageQuery {
    @Pattern(regexp = "[a-zA-Z_]+")
    private String sort;
    private String order;
}
`, "OrderQuery.java": `package shop;
public class OrderQuery extends PageQuery {
    @SortField
    private String field;
}
`, "SortField.java": constraint, "SortValidator.java": validator, "S.java": `package shop;
class S {
    List<A> a(OrderQuery q) {
        AExample example = new AExample();
        example.setOrderByClause(q.getSort());
        example.setOrderByClause(q.getField() + " desc");
        example.setOrderByClause(q.getOrder());
    }
}
`}, 3, []int{7}},
		{"whitelist checks in the method", map[string]string{"S.java": `package shop;
class S {
    private static final Set<String> SORTS = new HashSet<>(Arrays.asList("id", "name"));
    private static final Map<String, String> COLUMNS = new HashMap<>();
    static {
        COLUMNS.put("name", "name");
        COLUMNS.put("created", "create_time");
    }
    private final List<String> allowed = List.of("id", "name");
    private final List<String> seen = new ArrayList<>();

    void a(String sort) {
        if (!SORTS.contains(sort)) {
            throw new IllegalArgumentException("bad sort " + sort);
        }
        new AExample().setOrderByClause(sort + " desc");
    }
    void b(String sort) {
        if (sort == null || !allowed.contains(sort)) return;
        new AExample().setOrderByClause(sort);
    }
    void c(String sort) {
        String column = COLUMNS.get(sort);
        if (column == null) {
            throw new IllegalArgumentException(sort);
        }
        new AExample().setOrderByClause(column);
    }
    void d(String sort) {
        switch (sort) {
        case "id":
        case "name":
            break;
        default:
            throw new IllegalArgumentException(sort);
        }
        new AExample().setOrderByClause(sort);
    }
    void e(String sort) {
        String column = switch (sort) {
            case "created" -> "create_time";
            case "name" -> "name";
            default -> "id";
        };
        new AExample().setOrderByClause(column);
    }
    void f(String sort) {
        Assert.isTrue(SORTS.contains(sort), "bad sort");
        new AExample().setOrderByClause(SORTS.contains(sort) ? sort : "id");
    }
    void g(String sort) {
        if (!SORTS.contains(sort)) sort = "id";
        new AExample().setOrderByClause(sort);
        if (SORTS.contains(sort)) {
            new AExample().setOrderByClause(sort);
        }
    }
}
`}, 8, nil},
		{"more shapes of a check", map[string]string{"S.java": `package shop;
class S {
    private static final String[] SORTS = {"id", "name"};
    private static final List<String> NAMES = Arrays.asList(SORTS);

    void a(String sort) {
        if (NAMES.contains(sort)) new AExample().setOrderByClause(sort);
        if (!NAMES.contains(sort)) {
            log.warn(sort);
        } else {
            new AExample().setOrderByClause(sort);
        }
    }
    void b(String sort) {
        switch (sort) {
        case "id" -> new AExample().setOrderByClause(sort);
        case "name" -> {
            new AExample().setOrderByClause(sort + " desc");
        }
        default -> new AExample().setOrderByClause(sort);
        }
    }
    void c() {
        for (String s : NAMES) {
            new AExample().setOrderByClause(s);
        }
    }
    void d(String sort) {
        Preconditions.checkArgument(StringUtils.equalsAny(sort, "id", "name"));
        new AExample().setOrderByClause(sort);
    }
    void e(String sort) {
        if (!sort.matches("[a-z_]+")) throw new IllegalArgumentException(sort);
        new AExample().setOrderByClause(sort);
    }
}
`, "V.java": `package shop;
class V implements ConstraintValidator<Sort, String> {
    private static final Set<String> ALLOWED = Set.of("id", "name");
    public boolean isValid(String value, ConstraintValidatorContext ctx) {
        if (!ALLOWED.contains(value)) {
            return false;
        }
        return true;
    }
}
`, "Sort.java": `package shop;
@Constraint(validatedBy = V.class)
public @interface Sort {}
`, "T.java": `package shop;
class T {
    void a(@Sort String sort) {
        new AExample().setOrderByClause(sort);
    }
}
`}, 9, []int{20}},
		{"the same methods without a check", map[string]string{"S.java": `package shop;
class S {
    private static final Set<String> SORTS = new HashSet<>(Arrays.asList("id", "name"));
    private final List<String> seen = new ArrayList<>();

    void a(String sort, List<String> allowed) {
        if (!allowed.contains(sort)) {
            throw new IllegalArgumentException(sort);
        }
        new AExample().setOrderByClause(sort);
    }
    void b(String sort) {
        new AExample().setOrderByClause(sort);
        if (!SORTS.contains(sort)) return;
    }
    void c(String sort, String other) {
        if (!SORTS.contains(sort)) return;
        sort = other;
        new AExample().setOrderByClause(sort);
    }
    void d(String sort) {
        if (flag) {
            if (!SORTS.contains(sort)) return;
        }
        new AExample().setOrderByClause(sort);
    }
    void e(String sort) {
        seen.add(sort);
        if (!seen.contains(sort)) return;
        new AExample().setOrderByClause(sort);
    }
    void f(String sort) {
        switch (sort) {
        case "id":
            break;
        default:
            log.warn(sort);
        }
        new AExample().setOrderByClause(sort);
    }
    void g(String sort) {
        if (!SORTS.contains(sort)) log.warn(sort);
        new AExample().setOrderByClause(SORTS.contains(sort) ? "id" : sort);
    }
}
`}, 7, []int{10, 13, 19, 25, 30, 39, 43}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			open, sets := openLines(t, tt.files)
			if sets != tt.sets {
				t.Errorf("%d setters read, want %d", sets, tt.sets)
			}
			if d := cmp.Diff(tt.open, open); d != "" {
				t.Errorf("open setters (-want +got):\n%s", d)
			}
		})
	}
}
