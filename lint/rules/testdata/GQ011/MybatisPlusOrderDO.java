package shop.plus.model;

import com.baomidou.mybatisplus.annotation.TableName;

@TableName("t_order")
public class MybatisPlusOrderDO {
    private Long id;
    private String status;
}
