package shop.jpa.repository;

import javax.persistence.Entity;
import javax.persistence.Id;
import javax.persistence.Table;
import org.springframework.data.jpa.repository.JpaRepository;
import org.springframework.data.jpa.repository.Modifying;
import org.springframework.data.jpa.repository.Query;

public interface JpaInventoryRepository extends JpaRepository<JpaStock, Long> {
    @Modifying
    @Query("delete from JpaStock") // want "GQ001"
    int purge();

    // Safe twin: one row.
    @Modifying
    @Query("delete from JpaStock s where s.id = ?1")
    int purgeOne(Long id);
}

@Entity
@Table(name = "t_inventory")
class JpaStock {
    @Id
    private Long id;
}
