package jpa

import (
	"testing"

	"github.com/guard-sql/guard/internal/hostcode/java"
	"github.com/guard-sql/guard/internal/stmt"
)

// TestJPACalls reads a service's repository calls through the Java reader's
// Syntax view: the save of an entity read and changed in the method, and a
// @Query method called as a statement of its own; a compared, an assigned
// and a finder call are none.
func TestJPACalls(t *testing.T) {
	src := `package shop.service;

import shop.repo.ProductRepository;

public class ProductService {
    private ProductRepository productRepository;

    void buy(Long id, int n) {
        Product p = productRepository.findById(id).orElseThrow();
        p.setQuantity(p.getQuantity() - n);
        productRepository.save(p);
        productRepository.deduct(id, n);
        if (productRepository.deduct(id, n) != 1) {
            throw new IllegalStateException();
        }
        int k = productRepository.deduct(id, n);
        var list = productRepository.findByName("x");
    }
}
`
	f := java.ExtractJava("ProductService.java", []byte(src))
	if len(f.MapperCalls) != 2 {
		t.Fatalf("calls %+v", f.MapperCalls)
	}
	save, dropped := f.MapperCalls[0], f.MapperCalls[1]
	if save.Framework != stmt.FrameworkJPA || save.Mapper != "shop.repo.ProductRepository" || save.Method != "save" ||
		save.RecordRead == nil || save.RecordRead.Method != "findById" || len(save.Sets) != 1 || save.Sets[0].Form != stmt.ValueFromRead {
		t.Errorf("save %+v", save)
	}
	if dropped.Framework != stmt.FrameworkSpringData || dropped.Method != "deduct" || !dropped.ResultDiscarded || dropped.Line != 12 {
		t.Errorf("dropped %+v", dropped)
	}
}

func TestJPAFlushes(t *testing.T) {
	src := `package shop.service;

import org.springframework.transaction.annotation.Transactional;
import shop.repo.StockRepository;

public class StockService {
    private StockRepository stockRepository;

    @Transactional
    public void take(Long id, long n) {
        Stock s = stockRepository.findById(id).orElseThrow();
        s.decrease(n);
    }

    @Transactional
    public void saved(Long id, long n) {
        Stock s = stockRepository.findById(id).orElseThrow();
        s.decrease(n);
        stockRepository.save(s);
    }

    @Transactional(readOnly = true)
    public void readOnly(Long id, long n) {
        Stock s = stockRepository.findById(id).orElseThrow();
        s.decrease(n);
    }

    @Transactional(propagation = Propagation.SUPPORTS)
    public void supports(Long id, long n) {
        Stock s = stockRepository.findById(id).orElseThrow();
        s.setQuantity(s.getQuantity() - n);
    }

    public void none(Long id, long n) {
        Stock s = stockRepository.findById(id).orElseThrow();
        s.decrease(n);
    }
}
`
	f := java.ExtractJava("StockService.java", []byte(src))
	var flushes []stmt.MapperCall
	for _, c := range f.MapperCalls {
		if c.Framework == stmt.FrameworkJPAFlush {
			flushes = append(flushes, c)
		}
	}
	if len(flushes) != 1 || flushes[0].HostMethod != "take" || flushes[0].Line != 12 || flushes[0].Mapper != "shop.repo.StockRepository" ||
		len(flushes[0].RecordCalls) != 1 || flushes[0].RecordRead == nil {
		t.Errorf("flushes %+v", flushes)
	}
}
