package shop.jpa.repository;

import javax.persistence.LockModeType;
import org.springframework.data.jpa.repository.JpaRepository;
import org.springframework.data.jpa.repository.Lock;
import shop.jpa.model.JpaInventory;

public interface JpaInventoryRepository extends JpaRepository<JpaInventory, Long> {
    JpaInventory findByProductId(Long productId);

    @Lock(LockModeType.PESSIMISTIC_WRITE)
    JpaInventory findLockedById(Long id);
}
