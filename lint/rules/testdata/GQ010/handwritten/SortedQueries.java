package shop.mapper;

import java.util.List;
import java.util.Map;
import javax.validation.constraints.Pattern;
import org.apache.ibatis.annotations.Param;
import shop.service.SortQuery;

public interface SortedQueries {
    List<Map<String, Object>> byCheckedCaller(@Param("tenantId") long tenantId, @Param("sort") String sort);

    List<Map<String, Object>> byUncheckedCaller(@Param("tenantId") long tenantId, @Param("sort") String sort);

    List<Map<String, Object>> byPattern(@Param("sort") @Pattern(regexp = "[a-z_]+") String sort,
            @Param("direction") @Pattern(regexp = "asc|desc") String direction);

    List<Map<String, Object>> byQuery(@Param("q") SortQuery q);

    List<Map<String, Object>> byQueryOrder(@Param("q") SortQuery q);
}
