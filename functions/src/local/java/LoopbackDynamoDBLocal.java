// Starts DynamoDB Local bound to 127.0.0.1 only. DynamoDB Local has no option for the address it listens
// on and binds every interface; this builds the server exactly as its own main() does, then sets the host
// of its Jetty connector before starting it, so nothing but this machine can reach the product's data.
// Run as a single source file (java LoopbackDynamoDBLocal.java <DynamoDB Local's own arguments>).
// It stops when its standard input ends: only the Node process that started it holds the other end of that
// pipe, so a product killed with SIGKILL (which runs no cleanup) does not leave its database running.
import java.lang.reflect.Field;
import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import software.amazon.dynamodb.services.local.main.ServerRunner;
import software.amazon.dynamodb.services.local.server.DynamoDBProxyServer;

public class LoopbackDynamoDBLocal {
  public static void main(String[] args) throws Exception {
    DynamoDBProxyServer proxy = ServerRunner.createServerFromCommandLineArgs(args);
    Field field = DynamoDBProxyServer.class.getDeclaredField("server");
    field.setAccessible(true);
    Server jetty = (Server) field.get(proxy);
    int bound = 0;
    for (Connector connector : jetty.getConnectors()) {
      if (connector instanceof ServerConnector) {
        ((ServerConnector) connector).setHost("127.0.0.1");
        bound++;
      }
    }
    if (bound == 0) throw new IllegalStateException("no connector to bind to 127.0.0.1");
    proxy.start();
    Thread parentWatch = new Thread(() -> {
      try {
        while (System.in.read() != -1) {}
      } catch (java.io.IOException ignored) {
        // A broken pipe is an ended one.
      }
      System.exit(0);
    });
    parentWatch.setDaemon(true);
    parentWatch.start();
    System.out.println("DynamoDB Local listening on 127.0.0.1");
  }
}
