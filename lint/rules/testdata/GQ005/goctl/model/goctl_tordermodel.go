package model

import "context"

type customTOrderModel struct {
	*defaultTOrderModel
}

// MarkPaid takes the record and names the state it leaves.
func (m *customTOrderModel) MarkPaid(ctx context.Context, data *TOrder) error {
	res, err := m.conn.ExecCtx(ctx, "update t_order set status = ? where id = ? and status = 'pending'", data.Status, data.Id)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return ErrStateChanged
	}
	return nil
}
