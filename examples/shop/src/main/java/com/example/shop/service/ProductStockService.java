package com.example.shop.service;

import com.baomidou.mybatisplus.core.conditions.update.LambdaUpdateWrapper;
import com.example.shop.entity.InventoryDO;
import com.example.shop.entity.OrderDO;
import com.example.shop.entity.ProductDO;
import com.example.shop.mapper.plus.OrderRecordMapper;
import com.example.shop.mapper.plus.ProductMapper;
import com.example.shop.mapper.plus.WarehouseStockMapper;

/** Stock and order writes through MyBatis-Plus: entities and wrapper chains. */
public class ProductStockService {
    private ProductMapper productMapper;
    private WarehouseStockMapper warehouseStockMapper;
    private OrderRecordMapper orderRecordMapper;

    // safe: the product read carries its @Version, which the interceptor compares; a lost race is retried.
    public void sell(Long productId, int n) {
        for (int attempt = 0; attempt < 3; attempt++) {
            ProductDO product = productMapper.selectById(productId);
            product.setStock(product.getStock() - n);
            if (productMapper.updateById(product) == 1) {
                return;
            }
        }
        throw new IllegalStateException("product " + productId + " changed meanwhile");
    }

    // unsafe GQ003: a fresh entity carries the stock computed from the read but not its version, so nothing is compared.
    public void sellQuick(Long productId, int n) {
        ProductDO product = productMapper.selectById(productId);
        productMapper.updateById(new ProductDO().setId(productId).setStock(product.getStock() - n));
    }

    // Moves stock out of a warehouse by read, subtract, write.
    public void moveOut(Long inventoryId, int n) {
        InventoryDO row = warehouseStockMapper.selectById(inventoryId);
        row.setOnHand(row.getOnHand() - n);
        // unsafe GQ003: t_inventory has no version: the count computed in Java overwrites concurrent moves.
        warehouseStockMapper.updateById(row);
    }

    // unsafe GQ011: the guarded decrement refuses by changing no row, and the count it returns is dropped.
    public void reserve(Long productId, int n) {
        productMapper.update(null, new LambdaUpdateWrapper<ProductDO>()
                .setSql("stock = stock - " + n + ", version = version + 1")
                .eq(ProductDO::getId, productId).ge(ProductDO::getStock, n));
    }

    // unsafe GQ005: the order was checked to be NEW, but the write does not require it any more.
    public void pay(Long orderId) {
        OrderDO order = validateNew(orderId);
        orderRecordMapper.updateById(new OrderDO().setId(orderId).setStatus("PAID"));
    }

    // safe: the transition names the state it leaves and bumps the version; its count is tested.
    public void payGuarded(Long orderId) {
        int changed = orderRecordMapper.update(null, new LambdaUpdateWrapper<OrderDO>()
                .set(OrderDO::getStatus, "PAID").setSql("version = version + 1")
                .eq(OrderDO::getId, orderId).eq(OrderDO::getStatus, "NEW"));
        if (changed != 1) {
            throw new IllegalStateException("order " + orderId + " is not NEW");
        }
    }

    private OrderDO validateNew(Long orderId) {
        OrderDO order = orderRecordMapper.selectById(orderId);
        if (order == null || !"NEW".equals(order.getStatus())) {
            throw new IllegalStateException("order " + orderId + " is not NEW");
        }
        return order;
    }
}
