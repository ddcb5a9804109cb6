package shop.plus.model;

import com.baomidou.mybatisplus.annotation.TableName;
import lombok.Data;

@TableName("t_audit")
@Data
public class MybatisPlusAuditDO {
    private Long id;
    private Integer auditFlag;
    private String reviewer;
}
