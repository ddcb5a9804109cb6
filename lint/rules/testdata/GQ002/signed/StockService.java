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
        stockMapper.moveStock(id, 0 - qty);
    }

    public void placeChecked(long id, int qty) {
        stockMapper.addStockGuarded(id, -qty);
        stockMapper.addStockChecked(id, -qty, qty);
    }

    public void placeByObject(long id, int qty) {
        StockDelta d = new StockDelta();
        d.setId(id);
        d.setDelta(-qty);
        stockMapper.applyDelta(d);
    }

    // Returns put it back, with positive amounts only.
    public void cancel(long id, int qty) {
        stockMapper.restock(id, qty);
        stockMapper.putBack(id, qty);
    }
}
