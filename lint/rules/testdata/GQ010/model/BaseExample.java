package shop.model;

// The base class a generator plugin gives the Example classes of
// shared/*.xml.
public abstract class BaseExample {
    protected String orderByClause;

    public void setOrderByClause(String orderByClause) {
        this.orderByClause = orderByClause;
    }
}
