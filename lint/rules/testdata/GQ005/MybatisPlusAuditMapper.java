package shop.plus.mapper;

import com.baomidou.mybatisplus.core.mapper.BaseMapper;
import shop.plus.model.MybatisPlusAuditDO;

public interface MybatisPlusAuditMapper extends BaseMapper<MybatisPlusAuditDO> {
}
