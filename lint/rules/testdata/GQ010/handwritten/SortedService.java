package shop.service;

import java.util.List;
import java.util.Map;
import java.util.Set;
import shop.mapper.SortedQueries;

// The callers of SortedQueries: one checks the sort against a constant
// set before the call, the other passes the request's text on.
public class SortedService {
    private static final Set<String> SORTS = Set.of("id", "inventory");

    private final SortedQueries queries;

    public SortedService(SortedQueries queries) {
        this.queries = queries;
    }

    public List<Map<String, Object>> checked(long tenantId, String sort) {
        if (!SORTS.contains(sort)) {
            throw new IllegalArgumentException("unknown sort " + sort);
        }
        return queries.byCheckedCaller(tenantId, sort);
    }

    public List<Map<String, Object>> unchecked(long tenantId, String sort) {
        return queries.byUncheckedCaller(tenantId, sort);
    }
}
