package shop.mapper;

import java.util.List;
import javax.validation.constraints.Pattern;
import org.apache.ibatis.annotations.Param;
import org.apache.ibatis.annotations.Select;

public interface CheckedAnnotationMapper {
    // The parameter's constraint admits column names only: silent.
    @Select("SELECT id FROM t_inventory ORDER BY ${sort}")
    List<Long> sorted(@Param("sort") @Pattern(regexp = "[a-z_]+") String sort);

    // The same without it.
    @Select("SELECT id FROM t_inventory ORDER BY ${sort}") // want "^GQ010 MyBatis [$][{]sort[}] at 14:50 pastes a raw string"
    List<Long> raw(@Param("sort") String sort);
}
