package shop.plus.model;

import com.baomidou.mybatisplus.annotation.TableName;

@TableName("t_order")
public class MybatisPlusOrder {
    private Long id;
    private String status;
    private String orderNo;
}
