package com.example.shop.entity;

import com.baomidou.mybatisplus.annotation.TableId;
import com.baomidou.mybatisplus.annotation.TableName;
import com.baomidou.mybatisplus.annotation.Version;
import lombok.Data;
import lombok.experimental.Accessors;

/** A product and its sellable stock; the OptimisticLockerInnerInterceptor compares its version. */
@TableName("t_product")
@Data
@Accessors(chain = true)
public class ProductDO {
    @TableId
    private Long id;
    private String sku;
    private String name;
    private Integer stock;
    @Version
    private Long version;
}
