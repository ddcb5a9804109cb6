package shop.signed;

// The parameter object of StockMapper.applyDelta.
public class StockDelta {
    private long id;
    private int delta;

    public void setId(long id) { this.id = id; }
    public void setDelta(int delta) { this.delta = delta; }
}
