package dao

import (
	"context"
	"fmt"
	"log"
	"testing"

	"github.com/pkg/errors"
	"github.com/zeromicro/go-zero/core/logx"
	"github.com/zeromicro/go-zero/core/stores/sqlx"
	"go.uber.org/zap"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"example.com/shop/common/xerr"
)

type orderLogic struct {
	conn   sqlx.SqlConn
	Logger logx.Logger
	table  string
}

// The texts of errors and log lines start like SQL and are not SQL: none of
// them is reported. The statements the database runs beside them are.
func (l *orderLogic) cancel(ctx context.Context, id int64) error {
	res, err := l.conn.ExecCtx(ctx, "UPDATE t_order SET state = 2 WHERE id = ? AN state = 1", id) // want "^GQ009 not checked: SQL does not parse at 28:77: syntax error near \"AN state = 1\""
	if err != nil {
		return errors.Wrapf(xerr.NewErrMsg("update order state fail"), "update order state fail err: %v", err)
	}
	if n, _ := res.RowsAffected(); n != 1 {
		l.Logger.Errorf("update order %d skipped", id)
		logx.WithContext(ctx).Infof("delete soft failed for %d", id)
		zap.L().Warn("delete from cache failed")
		return errors.New("delete soft failed ")
	}
	return nil
}

// A go-zero query method runs what it is given: the columns pasted in at run
// time make the statement unreadable, and it is reported.
func (l *orderLogic) find(ctx context.Context, cols string, id int64) (int64, error) {
	var v int64
	query := fmt.Sprintf("select %s from %s", cols, l.table) // want "^GQ009 not checked: SQL built at run time with fmt.Sprintf$"
	if err := l.conn.QueryRowCtx(ctx, &v, query, id); err != nil {
		return 0, status.Error(codes.NotFound, "select order fail")
	}
	return v, nil
}

// Messages reach their sink through variables too, and error constructors
// guard does not know are judged by the text: neither is SQL.
func (l *orderLogic) reconcile(key string, n int) error {
	msg := fmt.Sprintf("delete from cache failed, key=%s", key)
	log.Println(msg)
	if n < 0 {
		return xerr.NewErrCodeMsg(1001, "update stock fail")
	}
	return report("create homestay order fail")
}

func report(msg string) error { return errors.New(msg) }

func TestCancel(t *testing.T) {
	t.Run("update order state", func(t *testing.T) {})
}
