package shop.plus.mapper;

import com.baomidou.mybatisplus.core.mapper.BaseMapper;
import shop.plus.model.MybatisPlusShelfDO;

public interface MybatisPlusShelfMapper extends BaseMapper<MybatisPlusShelfDO> {
}
