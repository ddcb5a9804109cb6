package shop.plus.dto;

import lombok.Data;

// What an admin form sends: with the stock, and without it.
public class SkuCopyRequests {
    @Data
    public static class SkuEditReq {
        private Long id;
        private String name;
        private Integer stock;
    }

    @Data
    public static class SkuRenameReq {
        private Long id;
        private String name;
    }
}
