package shop.plus.model;

import com.baomidou.mybatisplus.annotation.TableName;
import lombok.Builder;
import lombok.Data;

@TableName("t_job")
@Data
@Builder
public class MybatisPlusTaskDO {
    private Long id;
    private Integer lockMark;
    private String owner;
    private String note;
}
