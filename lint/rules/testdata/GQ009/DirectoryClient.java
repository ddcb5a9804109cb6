package shop.client;

import java.sql.Connection;
import java.sql.Statement;
import org.apache.http.client.methods.HttpGet;
import org.springframework.web.client.RestTemplate;

// Strings that read like SQL but go to an HTTP service are not SQL: a
// query language of another system, a URL. The twin that a JDBC call runs
// is SQL built at run time.
public class DirectoryClient {
    private static final String LOOKUP = "select user from directory where name = %s";
    private RestTemplate rest;
    private Connection conn;

    public String lookup(String name) {
        return rest.getForObject(String.format(LOOKUP, name), String.class);
    }

    public void ldap(String name) throws Exception {
        String q = "select user from directory where name = " + name;
        http.execute(new HttpGet("http://ldap/?q=" + q));
    }

    public void purge(String table) throws Exception {
        String q = "delete from " + table + " where expired = 1"; // want "GQ009 not checked: SQL built at run time: concatenation with table"
        try (Statement st = conn.createStatement()) {
            st.executeUpdate(q);
        }
    }
}
