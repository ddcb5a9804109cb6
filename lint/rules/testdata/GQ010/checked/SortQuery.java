package shop.service;

import javax.validation.constraints.Pattern;
import lombok.Data;

// A request object: its sort and direction are checked when it is bound,
// its order is not.
@Data
public class SortQuery {
    @SortColumn
    private String sort;

    @Pattern(regexp = "(?i)asc|desc")
    private String direction;

    private String order;
}
