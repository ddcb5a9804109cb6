package shop.jpa.repository;

import javax.persistence.Entity;
import javax.persistence.Id;
import javax.persistence.OneToMany;
import javax.persistence.Table;
import org.springframework.data.jpa.repository.JpaRepository;
import org.springframework.data.jpa.repository.Modifying;
import org.springframework.data.jpa.repository.Query;

public interface JpaUnmappedRepository extends JpaRepository<JpaCart, Long> {
    @Modifying
    @Query("update Basket b set b.total = 0 where b.id = ?1") // want "GQ009 not checked: JPQL not rendered: no @Entity named Basket in the files read"
    int clear(Long id);

    @Modifying
    @Query("delete from JpaCart c where size(c.lines) = 0") // want "GQ009 not checked: JPQL not rendered: JPQL SIZE"
    int dropEmpty();

    @Modifying
    @Query("update JpaCart c set c.total = c.total - ?2 where c.id = ?1 and c.owner.name = 'x'") // want "GQ009 not checked: JPQL not rendered: JPQL path c.owner.name: JpaCart has no persistent field owner"
    int discount(Long id, int amount);

    @Modifying
    @Query(JpaCart.CLEAR_ALL) // want "GQ009 not checked: Spring Data @Query uses constants not defined in this file: JpaCart.CLEAR_ALL"
    int clearAll();

    // A query is not a write: nothing to say about what it cannot map.
    @Query("select c from JpaCart c where size(c.lines) > 0")
    java.util.List<JpaCart> nonEmpty();
}

@Entity
@Table(name = "t_cart")
class JpaCart {
    @Id
    private Long id;

    private Integer total;

    @OneToMany(mappedBy = "cart")
    private java.util.List<Object> lines;
}
