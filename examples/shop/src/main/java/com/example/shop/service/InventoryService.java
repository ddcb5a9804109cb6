package com.example.shop.service;

import java.util.List;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.stereotype.Service;

import com.example.shop.mapper.InventoryMapper;
import com.example.shop.model.Inventory;
import com.example.shop.model.InventoryExample;

/** Inventory rows through the generated mapper, for the controllers. */
@Service
public class InventoryService {
    @Autowired
    private InventoryMapper inventoryMapper;

    public Inventory findByProduct(long productId, int warehouseId) {
        InventoryExample example = new InventoryExample();
        example.createCriteria().andProductIdEqualTo(productId).andWarehouseIdEqualTo(warehouseId);
        List<Inventory> rows = inventoryMapper.selectByExample(example);
        if (rows.isEmpty()) {
            return null;
        }
        return rows.get(0);
    }

    public int update(Inventory inventory) {
        return inventoryMapper.updateByPrimaryKeySelective(inventory);
    }
}
