package com.example.shop.jpa;

import org.springframework.data.jpa.repository.JpaRepository;

/** Spring Data repository of the orders. */
public interface OrderRepository extends JpaRepository<Order, Long> {
}
