package shop.plus.service;

import shop.plus.mapper.MybatisPlusShelfMapper;
import shop.plus.model.MybatisPlusShelfDO;

public class MybatisPlusShelfService {
    private MybatisPlusShelfMapper shelfMapper;

    // Safe twin: the form's count of a column no code decrements.
    public void edit(Long id, Integer quantity) {
        MybatisPlusShelfDO s = new MybatisPlusShelfDO();
        s.setId(id);
        s.setQuantity(quantity);
        shelfMapper.updateById(s);
    }
}
