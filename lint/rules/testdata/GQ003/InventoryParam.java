package shop.dto;

import shop.model.Inventory;

// An admin form that extends the generated model: it carries every column.
public class InventoryParam extends Inventory {
    private String operator;

    public String getOperator() { return operator; }
}
