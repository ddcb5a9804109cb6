package shop.jpa.service;

import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;
import shop.jpa.model.JpaDynamicOrderLine;
import shop.jpa.model.JpaOrderLine;
import shop.jpa.model.JpaVersionedOrderLine;
import shop.jpa.repository.JpaDynamicOrderLineRepository;
import shop.jpa.repository.JpaOrderLineRepository;
import shop.jpa.repository.JpaVersionedOrderLineRepository;

@Service
public class JpaOrderLineService {
    private JpaOrderLineRepository lines;
    private JpaVersionedOrderLineRepository versioned;
    private JpaDynamicOrderLineRepository dynamic;

    // Read, subtract, save: the UPDATE writes the quantity computed and the
    // status as read, undoing a concurrent transition too.
    public void reduce(Long id, int n) {
        JpaOrderLine line = lines.findById(id).orElseThrow(IllegalStateException::new);
        line.setQuantity(line.getQuantity() - n);
        lines.save(line); // want "GQ003 counter t_order.quantity is set to line.getQuantity.. - n, computed from line read by findById at line 21, .*lost update.; save rewrites every column of JpaOrderLine from the values read at line 21, t_order.status included, undoing a concurrent change to it; add @Version$"
    }

    // Safe twin: @Version, the save is a compare-and-set.
    public void reduceVersioned(Long id, int n) {
        JpaVersionedOrderLine line = versioned.findById(id).orElseThrow(IllegalStateException::new);
        line.setQuantity(line.getQuantity() - n);
        versioned.save(line);
    }

    // Safe twin: a new entity, the save is an INSERT.
    public void add(int n) {
        JpaOrderLine line = new JpaOrderLine();
        line.setQuantity(n - 1);
        lines.save(line);
    }

    // @DynamicUpdate: the counter computed from the read is still a lost
    // update, but the UPDATE writes no other column.
    public void reduceDynamic(Long id, int n) {
        JpaDynamicOrderLine line = dynamic.findById(id).orElseThrow(IllegalStateException::new);
        line.setQuantity(line.getQuantity() - n);
        dynamic.save(line); // want "GQ003 counter t_order.quantity is set to line.getQuantity.. - n, .*JpaDynamicOrderLineRepository.save .*lost update.$"
    }

    // The entity checks the quantity it read, then the flush writes.
    @Transactional
    public void take(Long id, int n) {
        JpaOrderLine line = lines.findById(id).orElseThrow(IllegalStateException::new);
        line.take(n); // want "GQ003 counter t_order.quantity is set to line.take.n., which does quantity = quantity - n, .*; the check of quantity inside JpaOrderLine.take.. runs on the value read at line 51, so two transactions both pass it; the flush at commit rewrites every column of JpaOrderLine from the values read at line 51, t_order.status included"
    }

    // Safe twin: @Version makes the flush a compare-and-set.
    @Transactional
    public void takeVersioned(Long id, int n) {
        JpaVersionedOrderLine line = versioned.findById(id).orElseThrow(IllegalStateException::new);
        line.take(n);
    }
}
