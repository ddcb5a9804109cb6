package shop.plus.service;

import shop.plus.mapper.MybatisPlusAuditMapper;
import shop.plus.model.MybatisPlusAuditDO;

public class MybatisPlusAuditService {
    private MybatisPlusAuditMapper auditMapper;

    // audit_flag: checked for 0, then moved to 1 or 2 — a state by use.
    public void pass(Long id, String reviewer) {
        MybatisPlusAuditDO a = auditMapper.selectById(id);
        if (a.getAuditFlag() != 0) {
            throw new IllegalStateException("already audited");
        }
        a.setAuditFlag(1);
        a.setReviewer(reviewer);
        auditMapper.updateById(a); // want "GQ005 state column t_audit.audit_flag is set to 1 and written by .*MybatisPlusAuditMapper.updateById after a read by selectById at line 11"
    }

    public void reject(Long id) {
        MybatisPlusAuditDO a = auditMapper.selectById(id);
        if (a.getAuditFlag() != 0) {
            throw new IllegalStateException("already audited");
        }
        a.setAuditFlag(2);
        auditMapper.updateById(a); // want "GQ005 state column t_audit.audit_flag is set to 2"
    }
}
