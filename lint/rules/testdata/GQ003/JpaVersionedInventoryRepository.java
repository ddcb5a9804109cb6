package shop.jpa.repository;

import org.springframework.data.jpa.repository.JpaRepository;
import shop.jpa.model.JpaVersionedInventory;

public interface JpaVersionedInventoryRepository extends JpaRepository<JpaVersionedInventory, Long> {
}
