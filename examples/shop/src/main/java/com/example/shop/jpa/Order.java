package com.example.shop.jpa;

import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import jakarta.persistence.Version;

/** An order, mapped with JPA; @Version makes every save a compare-and-set. */
@Entity
@Table(name = "t_order")
public class Order {
    @Id
    private Long id;

    private String orderNo;

    private String status;

    @Version
    private Long version;

    public String getStatus() {
        return status;
    }

    public void setStatus(String status) {
        this.status = status;
    }
}
