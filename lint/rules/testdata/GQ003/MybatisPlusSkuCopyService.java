package shop.plus.service;

import cn.hutool.core.bean.BeanUtil;
import org.modelmapper.ModelMapper;
import org.springframework.beans.BeanUtils;
import shop.plus.convert.SkuCopyConvert;
import shop.plus.dto.SkuCopyRequests.SkuEditReq;
import shop.plus.dto.SkuCopyRequests.SkuRenameReq;
import shop.plus.mapper.MybatisPlusSkuCopyMapper;
import shop.plus.model.MybatisPlusSkuCopyDO;

// The entity's fields are the request's: a stock copied from an edit form
// undoes the orders' decrements made since the form was loaded.
public class MybatisPlusSkuCopyService {
    private MybatisPlusSkuCopyMapper skuMapper;
    private ModelMapper modelMapper;

    public void order(Long id, int n) {
        if (skuMapper.deduct(id, n) == 0) {
            throw new IllegalStateException("sold out");
        }
    }

    public void edit(SkuEditReq req) {
        MybatisPlusSkuCopyDO sku = new MybatisPlusSkuCopyDO();
        BeanUtils.copyProperties(req, sku);
        skuMapper.updateById(sku); // want "GQ003 counter t_sku_copy.stock is set to req.getStock.. .copied by BeanUtils.copyProperties at line 26., a value the caller supplies, and written by .*updateById while the code decrements it at .*MybatisPlusSkuCopyMapper.java:9"
    }

    public void editByHutool(SkuEditReq req) {
        MybatisPlusSkuCopyDO sku = BeanUtil.copyProperties(req, MybatisPlusSkuCopyDO.class);
        skuMapper.updateById(sku); // want "GQ003 counter t_sku_copy.stock is set to req.getStock.. .copied by BeanUtil.copyProperties"
    }

    public void editByModelMapper(SkuEditReq req) {
        MybatisPlusSkuCopyDO sku = modelMapper.map(req, MybatisPlusSkuCopyDO.class);
        skuMapper.updateById(sku); // want "GQ003 counter t_sku_copy.stock .*copied by modelMapper.map"
    }

    public void editByMapStruct(SkuEditReq req) {
        MybatisPlusSkuCopyDO sku = SkuCopyConvert.INSTANCE.toEntity(req);
        skuMapper.updateById(sku); // want "GQ003 counter t_sku_copy.stock .*copied by SkuCopyConvert.toEntity"
    }

    // Safe twins: the stock left out of the copy, a form without it, and a
    // copy of the row read (it writes back what it read).
    public void editKeepStock(SkuEditReq req) {
        MybatisPlusSkuCopyDO sku = new MybatisPlusSkuCopyDO();
        BeanUtils.copyProperties(req, sku, "stock");
        skuMapper.updateById(sku);
    }

    public void rename(SkuRenameReq req) {
        MybatisPlusSkuCopyDO sku = new MybatisPlusSkuCopyDO();
        BeanUtils.copyProperties(req, sku);
        skuMapper.updateById(sku);
    }

    public void touch(Long id, String name) {
        MybatisPlusSkuCopyDO old = skuMapper.selectById(id);
        MybatisPlusSkuCopyDO sku = new MybatisPlusSkuCopyDO();
        BeanUtils.copyProperties(old, sku);
        sku.setName(name);
        skuMapper.updateById(sku);
    }
}
