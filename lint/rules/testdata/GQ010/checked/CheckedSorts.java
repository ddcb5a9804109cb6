package shop.service;

import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.validation.constraints.Pattern;
import shop.validation.LooseSort;
import shop.validation.SortColumn;

// The callers of CheckedSortMapper: each sorts by what the request asks
// for, checked before the setter (silent) or not (reported at the
// statement).
public class CheckedSorts {
    private static final Set<String> SORTS = Set.of("id", "inventory");
    private static final Map<String, String> COLUMNS = Map.of("stock", "inventory", "newest", "id desc");

    // A @Pattern that admits column names and a direction only.
    public List<Map<String, Object>> byPattern(@Pattern(regexp = "[a-z_]+( (asc|desc))?") String sort) {
        TPatternExample example = new TPatternExample();
        example.setOrderByClause(sort);
        return mapper.selectByPattern(example);
    }

    // One that admits anything: no check at all.
    public List<Map<String, Object>> byLoosePattern(@Pattern(regexp = ".+") String sort) {
        TLoosePatternExample example = new TLoosePatternExample();
        example.setOrderByClause(sort);
        return mapper.selectByLoosePattern(example);
    }

    // A custom constraint whose validator tests a constant set.
    public List<Map<String, Object>> byConstraint(@SortColumn String sort) {
        TConstraintExample example = new TConstraintExample();
        example.setOrderByClause(sort);
        return mapper.selectByConstraint(example);
    }

    // One whose validator accepts whatever is not empty.
    public List<Map<String, Object>> byLooseConstraint(@LooseSort String sort) {
        TLooseConstraintExample example = new TLooseConstraintExample();
        example.setOrderByClause(sort);
        return mapper.selectByLooseConstraint(example);
    }

    // The fields of a request object, read through their getters.
    public List<Map<String, Object>> byQuery(SortQuery q) {
        TQueryExample example = new TQueryExample();
        example.setOrderByClause(q.getSort() + " " + q.getDirection());
        return mapper.selectByQuery(example);
    }

    // A field without a constraint.
    public List<Map<String, Object>> byQueryOrder(SortQuery q) {
        TQueryOrderExample example = new TQueryOrderExample();
        example.setOrderByClause(q.getSort() + " " + q.getOrder());
        return mapper.selectByQueryOrder(example);
    }

    // A whitelist check in the method, before the setter.
    public List<Map<String, Object>> byGuard(String sort) {
        if (sort == null || !SORTS.contains(sort)) {
            throw new IllegalArgumentException("unknown sort " + sort);
        }
        TGuardExample example = new TGuardExample();
        example.setOrderByClause(sort + " desc");
        return mapper.selectByGuard(example);
    }

    // A switch whose default refuses the value.
    public List<Map<String, Object>> bySwitch(String sort) {
        switch (sort) {
        case "id":
        case "inventory":
            break;
        default:
            throw new IllegalArgumentException("unknown sort " + sort);
        }
        TSwitchExample example = new TSwitchExample();
        example.setOrderByClause(sort);
        return mapper.selectBySwitch(example);
    }

    // The value replaced by a constant a map lookup chooses.
    public List<Map<String, Object>> byLookup(String sort) {
        String column = COLUMNS.get(sort);
        if (column == null) {
            return List.of();
        }
        TLookupExample example = new TLookupExample();
        example.setOrderByClause(column);
        return mapper.selectByLookup(example);
    }

    // The same value, checked after the setter: too late.
    public List<Map<String, Object>> unchecked(String sort) {
        TUncheckedExample example = new TUncheckedExample();
        example.setOrderByClause(sort);
        if (!SORTS.contains(sort)) {
            throw new IllegalArgumentException("unknown sort " + sort);
        }
        return mapper.selectUnchecked(example);
    }
}
