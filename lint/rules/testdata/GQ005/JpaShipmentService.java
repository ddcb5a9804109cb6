package shop.jpa.service;

import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;
import shop.jpa.model.JpaDynamicShipment;
import shop.jpa.model.JpaShipment;
import shop.jpa.model.JpaVersionedShipment;
import shop.jpa.repository.JpaDynamicShipmentRepository;
import shop.jpa.repository.JpaShipmentRepository;
import shop.jpa.repository.JpaVersionedShipmentRepository;

@Service
public class JpaShipmentService {
    private JpaShipmentRepository shipments;
    private JpaVersionedShipmentRepository versioned;
    private JpaDynamicShipmentRepository dynamic;

    // The entity checks "paid" on the row this transaction read; a second
    // transaction that read it too passes the same check, and both flush.
    @Transactional
    public void ship(Long id) {
        JpaShipment s = shipments.findById(id).orElseThrow(IllegalStateException::new);
        s.ship(); // want "GQ005 state column t_order.status is set to s.ship.., which does this.status = \"shipped\" .*dirty checking .*; the check of status inside JpaShipment.ship.. runs on the value read at line 22, so two transactions both pass it; the flush at commit rewrites every column of JpaShipment from the values read at line 22, t_order.quantity included"
    }

    // Safe twin: @Version makes the flush a compare-and-set.
    @Transactional
    public void shipVersioned(Long id) {
        JpaVersionedShipment s = versioned.findById(id).orElseThrow(IllegalStateException::new);
        s.ship();
    }

    // Safe twin: the method changes no state column.
    @Transactional
    public void rename(Long id, String orderNo) {
        JpaShipment s = shipments.findById(id).orElseThrow(IllegalStateException::new);
        s.rename(orderNo);
    }

    // A transition the entity inherits from its mapped superclass.
    @Transactional
    public void archive(Long id) {
        JpaShipment s = shipments.getReferenceById(id);
        s.archive(); // want "GQ005 state column t_order.status is set to s.archive.., which does status = \"archived\" .*; the check of status inside JpaShipment.archive.. runs on the value read at line 43"
    }

    // The switch on the old state inside the entity, then a save: the
    // save is the write, reported once.
    @Transactional
    public void cancel(Long id) {
        JpaShipment s = shipments.findById(id).orElseThrow(IllegalStateException::new);
        s.cancel();
        shipments.save(s); // want "GQ005 state column t_order.status is set to s.cancel.., which does this.status = \"cancelled\" and written by shop.jpa.repository.JpaShipmentRepository.save after s read by findById at line 51.*; the check of status inside JpaShipment.cancel.. runs on the value read at line 51, so two transactions both pass it"
    }

    // A setter and a save: Hibernate's UPDATE sends every column, the
    // quantity read included.
    public void close(Long id) {
        JpaShipment s = shipments.findById(id).orElseThrow(IllegalStateException::new);
        s.setStatus("closed");
        shipments.save(s); // want "GQ005 state column t_order.status is set to \"closed\" .*; save rewrites every column of JpaShipment from the values read at line 59, t_order.quantity included, undoing a concurrent change to it; add @Version$"
    }

    // Safe twin: @Version, the save compares the version read.
    public void closeVersioned(Long id) {
        JpaVersionedShipment s = versioned.findById(id).orElseThrow(IllegalStateException::new);
        s.setStatus("closed");
        versioned.save(s);
    }

    // Safe twin: a new entity, the save is an INSERT.
    public void open(String orderNo) {
        JpaShipment s = new JpaShipment();
        s.setStatus("pending");
        shipments.save(s);
    }

    // @DynamicUpdate: the state set is still unchecked, but the UPDATE
    // writes only it, so the finding says nothing of the other columns.
    public void closeDynamic(Long id) {
        JpaDynamicShipment s = dynamic.findById(id).orElseThrow(IllegalStateException::new);
        s.setStatus("closed");
        dynamic.save(s); // want "GQ005 state column t_order.status is set to \"closed\" .*a concurrent writer just set$"
    }
}
