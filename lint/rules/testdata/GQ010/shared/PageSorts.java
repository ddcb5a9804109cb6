package shop.service;

import java.util.Set;
import shop.model.BaseExample;

// The helpers every list goes through: they take any generated Example
// (all extend BaseExample), so one setter is the cause of the
// ${orderByClause} of every mapper whose Example it may be.
public class PageSorts {
    private static final Set<String> SORTS = Set.of("id", "inventory");

    public void sort(BaseExample example, String sort) {
        example.setOrderByClause(sort); // want "^GQ010 MyBatis Generator mappers paste the clause example.setOrderByClause[(]sort[)] sets into 3 statements [(][^ ]*shared/BrandMapper.xml:8, [^ ]*shared/SkuMapper.xml:8, [^ ]*shared/SpuMapper.xml:8[)] from sort, which no check vouches for: an injection risk in each"
    }

    // The same helper with the value checked first: silent.
    public void checkedSort(BaseExample example, String sort) {
        if (!SORTS.contains(sort)) {
            throw new IllegalArgumentException("unknown sort " + sort);
        }
        example.setOrderByClause(sort);
    }

    // A helper whose one finding is suppressed where the fix would go.
    public void gatewaySort(BaseExample example, String sort) {
        // guard:ignore GQ010 the gateway admits only the listed sorts
        example.setOrderByClause(sort);
    }
}
