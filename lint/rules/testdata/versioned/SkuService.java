package shop.service;

import shop.mbg.SkuMapper;
import shop.model.Sku;

public class SkuService {
    private SkuMapper skuMapper;

    public void deduct(long id, int n) {
        Sku sku = skuMapper.selectByPrimaryKey(id);
        Sku upd = new Sku();
        upd.setId(id); upd.setStock(sku.getStock() - n);
        skuMapper.updateByPrimaryKeySelective(upd);
    }
}
