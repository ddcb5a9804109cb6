package com.example.shop.jpa;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/** A warehouse's stock of a product, mapped with JPA (no @Version). */
@Entity
@Table(name = "t_inventory")
public class Inventory {
    @Id
    private Long id;

    private Long productId;

    private Integer warehouseId;

    @Column(name = "inventory", nullable = false)
    private Integer units;

    public Integer getUnits() {
        return units;
    }

    public void setUnits(Integer units) {
        this.units = units;
    }
}
