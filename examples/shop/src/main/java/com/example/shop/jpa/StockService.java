package com.example.shop.jpa;

import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/** Stock moves through Spring Data JPA. */
@Service
public class StockService {
    private final InventoryRepository inventoryRepository;
    private final OrderRepository orderRepository;

    public StockService(InventoryRepository inventoryRepository, OrderRepository orderRepository) {
        this.inventoryRepository = inventoryRepository;
        this.orderRepository = orderRepository;
    }

    @Transactional
    public void ship(long inventoryId, int n) {
        Inventory inv = inventoryRepository.findById(inventoryId).orElseThrow(IllegalStateException::new);
        if (inv.getUnits() < n) {
            throw new IllegalStateException("insufficient stock");
        }
        inv.setUnits(inv.getUnits() - n);
        // unsafe GQ003: the entity has no @Version: the save overwrites a concurrent sale (lost update).
        inventoryRepository.save(inv);
    }

    @Transactional
    public void hold(long inventoryId, int n) {
        // unsafe GQ011: the guarded JPQL refuses by changing no row, and the count is dropped.
        inventoryRepository.reserve(inventoryId, n);
    }

    @Transactional
    public void holdChecked(long inventoryId, int n) {
        // safe: a count other than 1 is a refusal.
        if (inventoryRepository.reserve(inventoryId, n) != 1) {
            throw new IllegalStateException("insufficient stock");
        }
    }

    @Transactional
    public void pay(long orderId) {
        Order order = orderRepository.getReferenceById(orderId);
        order.setStatus("PAID");
        // safe: Order has @Version, so JPA's UPDATE compares the version it read.
        orderRepository.save(order);
    }
}
