package com.example.shop.mapper.plus;

import com.baomidou.mybatisplus.core.conditions.update.LambdaUpdateWrapper;
import com.baomidou.mybatisplus.core.mapper.BaseMapper;
import com.example.shop.entity.ProductDO;

/** MyBatis-Plus mapper of t_product: its writes are wrapper chains, not SQL text. */
public interface ProductMapper extends BaseMapper<ProductDO> {

    // unsafe GQ002: the decrement is concatenated into setSql and nothing in the chain bounds it.
    default int deductStock(Long id, int n) {
        return update(null, new LambdaUpdateWrapper<ProductDO>()
                .setSql("stock = stock - " + n + ", version = version + 1")
                .eq(ProductDO::getId, id));
    }

    // safe: ge(stock, n) makes the database refuse an oversell, and the count goes back to the caller.
    default int deductStockGuarded(Long id, int n) {
        return update(null, new LambdaUpdateWrapper<ProductDO>()
                .setSql("stock = stock - " + n + ", version = version + 1")
                .eq(ProductDO::getId, id)
                .ge(ProductDO::getStock, n));
    }
}
