package com.example.shop.web;

import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

import com.example.shop.model.Inventory;
import com.example.shop.service.InventoryService;

/** Counter sales at a warehouse, under the Redis lock of the request. */
@RestController
public class WarehouseController {
    private final InventoryService inventoryService;

    public WarehouseController(InventoryService inventoryService) {
        this.inventoryService = inventoryService;
    }

    @PostMapping("/warehouse/sell")
    public void sell(@RequestParam long productId, @RequestParam int warehouseId, @RequestParam int n) {
        Inventory row = inventoryService.findByProduct(productId, warehouseId);
        if (row == null || row.getInventory() < n) {
            throw new IllegalStateException("insufficient stock");
        }
        row.setInventory(row.getInventory() - n);
        // unsafe GQ003: the count read through the service is written back by id through its update wrapper; a sale committed in between is lost
        inventoryService.update(row);
    }
}
