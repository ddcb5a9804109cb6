package shop.jpa.service;

import org.springframework.stereotype.Service;
import shop.jpa.repository.JpaInventoryRepository;

@Service
public class JpaStockService {
    private final JpaInventoryRepository inventoryRepository;

    public JpaStockService(JpaInventoryRepository inventoryRepository) {
        this.inventoryRepository = inventoryRepository;
    }

    // The count is dropped: a refused deduction looks like a sale.
    public void sell(Long id, int n) {
        inventoryRepository.deduct(id, n); // want "GQ011 JpaInventoryRepository.deduct.. runs a guarded decrement of inventory .*count of rows it returns is discarded"
    }

    // Safe twin: the count is compared.
    public void sellChecked(Long id, int n) {
        if (inventoryRepository.deduct(id, n) != 1) {
            throw new IllegalStateException("insufficient stock");
        }
    }

    // Reported once, at the void method: there is no count to compare here.
    public void sellQuietly(Long id, int n) {
        inventoryRepository.deductQuietly(id, n);
    }

    // Safe twin: the method's write is not conditional.
    public void note(Long id, String note) {
        inventoryRepository.annotate(id, note);
    }
}
