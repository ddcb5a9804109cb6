package shop.plus.convert;

import org.mapstruct.Mapper;
import org.mapstruct.factory.Mappers;
import shop.plus.dto.SkuCopyRequests.SkuEditReq;
import shop.plus.model.MybatisPlusSkuCopyDO;

@Mapper
public interface SkuCopyConvert {
    SkuCopyConvert INSTANCE = Mappers.getMapper(SkuCopyConvert.class);

    MybatisPlusSkuCopyDO toEntity(SkuEditReq req);
}
