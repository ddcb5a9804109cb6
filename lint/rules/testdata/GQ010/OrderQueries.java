package shop.service;

import java.util.List;

// The callers of the generated mappers: the order list sorts by what the
// request asks for, the inventory list by constants only.
public class OrderQueries {
    private static final String BY_ID = "id desc";

    public List<TOrder> orders(String sort) {
        TOrderExample example = new TOrderExample();
        example.setOrderByClause(sort + " desc");
        return orderMapper.selectByExample(example);
    }

    public List<TInventory> stock() {
        TInventoryExample example = new TInventoryExample();
        example.setOrderByClause(BY_ID);
        return inventoryMapper.selectByExample(example);
    }
}
