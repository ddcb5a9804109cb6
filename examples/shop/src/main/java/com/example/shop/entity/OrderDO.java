package com.example.shop.entity;

import com.baomidou.mybatisplus.annotation.TableName;
import com.baomidou.mybatisplus.annotation.Version;
import lombok.Data;
import lombok.experimental.Accessors;

@TableName("t_order")
@Data
@Accessors(chain = true)
public class OrderDO {
    private Long id;
    private String orderNo;
    private String status;
    private String remark;
    @Version
    private Long version;
}
