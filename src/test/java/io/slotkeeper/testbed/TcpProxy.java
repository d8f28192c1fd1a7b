package io.slotkeeper.testbed;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A TCP forwarder on loopback between a client and a server, like a Service or a network
 * path. {@link #cut()} stops it forwarding anything without closing a socket: to both
 * ends the peer is still there, it just never says another word, as when a pod freezes or
 * its network is cut without a reset. {@link #retarget} points it elsewhere, as a Service
 * after a failover.
 */
public final class TcpProxy implements AutoCloseable {

	private final ServerSocket listener;

	private volatile String host;

	private volatile int port;

	private final List<Socket> sockets = new ArrayList<>();

	// Per connection forwarded, the local port of its socket to the server against the
	// remote port of its client: who a session the server sees came from.
	private final Map<Integer, Integer> clients = new ConcurrentHashMap<>();

	private volatile boolean forwarding = true;

	private final Object stall = new Object();

	private volatile boolean stalled;

	/**
	 * Starts forwarding a free loopback port to a server.
	 * @param host the server's host
	 * @param port the server's port
	 */
	public TcpProxy(String host, int port) {
		this.host = host;
		this.port = port;
		try {
			this.listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		daemon(this::accept, "tcp-proxy-accept").start();
	}

	/**
	 * The port clients connect to.
	 * @return the port
	 */
	public int port() {
		return this.listener.getLocalPort();
	}

	/**
	 * Which client a connection this forwarder made to the server came from: the server
	 * sees the forwarder's port as the session's client port ({@code pg_stat_activity}),
	 * this says whose it is.
	 * @param serverSidePort the local port of the forwarder's socket to the server
	 * @return the remote port of the client it forwards, {@code null} when it made no
	 * such connection or it is closed
	 */
	public Integer clientPortOf(int serverSidePort) {
		return this.clients.get(serverSidePort);
	}

	/**
	 * Sends connections made from now on to another server, as a Service does after a
	 * failover.
	 * @param host the new server's host
	 * @param port the new server's port
	 */
	public void retarget(String host, int port) {
		this.host = host;
		this.port = port;
	}

	/**
	 * Closes every connection made so far, both ends, as the old primary does when it
	 * goes.
	 * @throws IOException when a socket cannot be closed
	 */
	public void closeConnections() throws IOException {
		synchronized (this.sockets) {
			for (Socket socket : this.sockets) {
				socket.close();
			}
			this.sockets.clear();
		}
	}

	/**
	 * Stops forwarding, now and for connections made later; every socket stays open.
	 */
	public void cut() {
		this.forwarding = false;
	}

	/**
	 * Stops forwarding without losing a byte, as a network that stalls: what was read is
	 * held, nothing more is read, and both ends wait (their writes block once the socket
	 * buffers fill) until {@link #resume()}.
	 */
	public void stall() {
		this.stalled = true;
	}

	/**
	 * Forwards again what a {@link #stall()} held, and all that follows.
	 */
	public void resume() {
		synchronized (this.stall) {
			this.stalled = false;
			this.stall.notifyAll();
		}
	}

	private void awaitFlowing() throws IOException {
		synchronized (this.stall) {
			while (this.stalled) {
				try {
					this.stall.wait();
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
					throw new IOException("interrupted while stalled", ex);
				}
			}
		}
	}

	private void accept() {
		try {
			while (true) {
				Socket client = this.listener.accept();
				Socket server;
				try {
					server = new Socket(this.host, this.port);
				}
				catch (IOException ex) {
					// The server behind is down (between a primary's stop and the
					// switch): refuse this client only.
					client.close();
					continue;
				}
				synchronized (this.sockets) {
					// An hour's soak opens thousands: those both pumps are done with are
					// closed and forgotten.
					this.sockets.removeIf(Socket::isClosed);
					this.sockets.add(client);
					this.sockets.add(server);
					this.clients.keySet().retainAll(this.sockets.stream().map(Socket::getLocalPort).toList());
					this.clients.put(server.getLocalPort(), client.getPort());
				}
				daemon(() -> pump(client, server), "tcp-proxy-up").start();
				daemon(() -> pump(server, client), "tcp-proxy-down").start();
			}
		}
		catch (IOException ex) {
			// Closed: the test is over.
		}
	}

	// Once cut, what arrives is read and dropped, so that neither end's writes block and
	// neither sees a close.
	private void pump(Socket from, Socket to) {
		byte[] buffer = new byte[8192];
		try (InputStream in = from.getInputStream()) {
			OutputStream out = to.getOutputStream();
			for (int read = in.read(buffer); read >= 0; read = in.read(buffer)) {
				awaitFlowing();
				if (this.forwarding) {
					out.write(buffer, 0, read);
					out.flush();
				}
			}
			// The peer closed: a network path passes that on (a killed client's session
			// ends on the server), a cut
			// one does not.
			awaitFlowing();
			if (this.forwarding) {
				to.shutdownOutput();
			}
		}
		catch (IOException ex) {
			// A reset, or a socket closed here: a network path passes a reset on too, or
			// the other end would wait for
			// an answer for good.
			passResetOn(to);
		}
	}

	private void passResetOn(Socket to) {
		try {
			awaitFlowing();
			if (this.forwarding) {
				to.setSoLinger(true, 0);
				to.close();
			}
		}
		catch (IOException ex) {
			// already closed
		}
	}

	private static Thread daemon(Runnable work, String name) {
		Thread thread = new Thread(work, name);
		thread.setDaemon(true);
		return thread;
	}

	@Override
	public void close() throws IOException {
		resume();
		this.listener.close();
		closeConnections();
	}

}
