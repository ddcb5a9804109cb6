package shop.dto;

// An admin form that carries the note only.
public class InventoryNoteParam {
    private Long id;
    private String note;

    public Long getId() { return id; }
    public String getNote() { return note; }
}
