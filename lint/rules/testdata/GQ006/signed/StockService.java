package shop.signed;

public class StockService {
    private final StockMapper stockMapper;

    public StockService(StockMapper stockMapper) {
        this.stockMapper = stockMapper;
    }

    // An order takes its quantity out of stock through the signed writes.
    public void place(long id, int qty) {
        stockMapper.addStock(id, -qty);
    }

    public void placeAnnotated(long id, int qty) {
        stockMapper.moveStock(id, -1 * qty);
    }

    // Returns put it back, with positive amounts only.
    public void cancel(long id, int qty) {
        stockMapper.restock(id, qty);
    }
}
