package com.example.shop.jpa;

import org.springframework.data.jpa.repository.JpaRepository;
import org.springframework.data.jpa.repository.Modifying;
import org.springframework.data.jpa.repository.Query;
import org.springframework.data.repository.query.Param;

/** Spring Data repository of the warehouse stock. */
public interface InventoryRepository extends JpaRepository<Inventory, Long> {

    // unsafe GQ002: the JPQL takes the units whether or not they are there.
    @Modifying
    @Query("update Inventory i set i.units = i.units - :n where i.productId = :productId and i.warehouseId = :warehouseId")
    int take(@Param("productId") long productId, @Param("warehouseId") int warehouseId, @Param("n") int n);

    // safe: the WHERE asks for enough units; the caller compares the count.
    @Modifying
    @Query("update Inventory i set i.units = i.units - :n where i.id = :id and i.units >= :n")
    int reserve(@Param("id") long id, @Param("n") int n);
}
