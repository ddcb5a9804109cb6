package shop.plus.mapper;

import com.baomidou.mybatisplus.core.mapper.BaseMapper;
import shop.plus.model.MybatisPlusTaskDO;

public interface MybatisPlusTaskMapper extends BaseMapper<MybatisPlusTaskDO> {
}
