package broken;

public interface Broken {
    @Update("UPDATE t_wallet SET balance = 0
    int zero();
}
