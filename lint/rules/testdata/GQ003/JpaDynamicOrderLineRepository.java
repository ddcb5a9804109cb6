package shop.jpa.repository;

import org.springframework.data.jpa.repository.JpaRepository;
import shop.jpa.model.JpaDynamicOrderLine;

public interface JpaDynamicOrderLineRepository extends JpaRepository<JpaDynamicOrderLine, Long> {
}
