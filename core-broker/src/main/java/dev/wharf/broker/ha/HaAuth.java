package dev.wharf.broker.ha;

import dev.wharf.security.AccessController;
import dev.wharf.security.AccessController.Authentication;
import dev.wharf.security.Action;
import dev.wharf.security.Credentials;
import dev.wharf.security.RequestSignature;
import dev.wharf.security.Resource;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.Map;

/**
 * The challenge-response that opens an authenticated HA connection (frames AUTH, CHALLENGE, PROOF of
 * {@link HaFrame}). Each side signs both nonces and the broker name with the user's key, with the request signature
 * of {@link RequestSignature} under codes no remoting request uses, so a proof fits this connection only: a
 * captured one is worthless on the next (fresh nonces), and one side's proof never passes for the other's (distinct
 * codes). The password never crosses the wire. The master proves first, so a rogue master learns nothing it could
 * replay; a rogue slave gets one challenge and a refusal. Without TLS a man in the middle could still relay the
 * proofs and read the plain stream after them: run TLS where the network is not trusted.
 */
final class HaAuth {

    /** Signature "request codes" of the two proofs: outside the remoting codes, so no request signature fits. */
    static final int MASTER_PROOF_CODE = 0x48410001;
    static final int SLAVE_PROOF_CODE = 0x48410002;

    private static final String BROKER = "haBrokerName";
    private static final String MASTER_NONCE = "haMasterNonce";
    private static final String SLAVE_NONCE = "haSlaveNonce";
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final int MAX_USER_LENGTH = 255;

    private HaAuth() {
    }

    /**
     * The master's side: {@code channel} holds the slave's first frame. Returns once the slave proved it holds the
     * credential of a user allowed to replicate.
     */
    static void master(FrameChannel channel, AccessController access, boolean authorize, String clusterName,
                       String brokerName) throws IOException, HaProtocolException {
        String peer = channel.peer();
        if (channel.type() != HaFrame.TYPE_AUTH) {
            throw new HaProtocolException(HaFrame.REFUSED_AUTHENTICATION, "this master of " + brokerName
                    + " authenticates its slaves (aclEnable) but " + peer + " sent " + HaFrame.typeName(channel.type())
                    + " without credentials; set innerClientAuthenticationCredentials on the slave to a user of the"
                    + " master's users file" + (authorize ? " with ADMIN on cluster:" + clusterName : ""));
        }
        ByteBuffer body = channel.body();
        int userLength = body.remaining() >= HaFrame.NONCE_SIZE + 2 ? body.getShort(HaFrame.NONCE_SIZE) & 0xFFFF : -1;
        if (userLength <= 0 || userLength > MAX_USER_LENGTH
                || body.remaining() != HaFrame.NONCE_SIZE + 2 + userLength) {
            throw new HaProtocolException(HaFrame.REFUSED_BAD_FRAME, "the AUTH frame of " + peer + " is "
                    + body.remaining() + " bytes with user name length " + userLength + "; they do not match");
        }
        byte[] slaveNonce = new byte[HaFrame.NONCE_SIZE];
        body.get(0, slaveNonce);
        byte[] name = new byte[userLength];
        body.get(HaFrame.NONCE_SIZE + 2, name);
        String user = new String(name, StandardCharsets.UTF_8);
        byte[] masterNonce = nonce();
        byte[] proof = decode(access.countersign(user, MASTER_PROOF_CODE,
                fields(user, brokerName, masterNonce, slaveNonce)));
        ByteBuffer challenge = ByteBuffer.allocate(HaFrame.CHALLENGE_SIZE).put(masterNonce).put(proof).flip();
        channel.write(HaFrame.TYPE_CHALLENGE, HaFrame.CLASSIC_EPOCH, challenge, null);

        channel.readFrame();
        String who = "user '" + user + "' at " + peer;
        if (channel.type() == HaFrame.TYPE_REFUSED) {
            HaProtocolException refusal = FrameChannel.refusal(channel.body(), peer);
            throw new HaProtocolException(HaFrame.REFUSED_AUTHENTICATION, "authentication of " + who + " failed:"
                    + " the slave did not accept this master's proof (unknown user here, or its password differs"
                    + " from this users file); it said: " + refusal.getMessage());
        }
        body = channel.body();
        if (channel.type() != HaFrame.TYPE_PROOF || body.remaining() != HaFrame.PROOF_FRAME_SIZE) {
            throw new HaProtocolException(HaFrame.REFUSED_BAD_FRAME, who + " answered the CHALLENGE with "
                    + HaFrame.typeName(channel.type()) + " of " + body.remaining() + " bytes, not a PROOF of "
                    + HaFrame.PROOF_FRAME_SIZE);
        }
        long timestamp = body.getLong(0);
        byte[] slaveProof = new byte[HaFrame.PROOF_SIZE];
        body.get(8, slaveProof);
        Map<String, String> signed = fields(user, brokerName, masterNonce, slaveNonce);
        signed.put(RequestSignature.TIMESTAMP, Long.toString(timestamp));
        signed.put(RequestSignature.SIGNATURE, Base64.getEncoder().encodeToString(slaveProof));
        Authentication authentication = access.authenticate(SLAVE_PROOF_CODE, signed, null);
        if (!authentication.succeeded()) {
            throw new HaProtocolException(HaFrame.REFUSED_AUTHENTICATION, "slave at " + peer + ": "
                    + authentication.failure());
        }
        if (authorize) {
            String denial = access.authorize(authentication.user(), Resource.cluster(clusterName), Action.ADMIN);
            if (denial != null) {
                throw new HaProtocolException(HaFrame.REFUSED_PERMISSION, "slave at " + peer + ": " + denial
                        + " (replicating the log of a broker needs what registering one needs)");
            }
        }
    }

    /** The slave's side, right after connecting (and TLS): returns once its PROOF is sent. */
    static void slave(FrameChannel channel, Credentials credentials, String brokerName, String master)
            throws IOException, HaProtocolException {
        byte[] user = credentials.user().getBytes(StandardCharsets.UTF_8);
        byte[] slaveNonce = nonce();
        ByteBuffer auth = ByteBuffer.allocate(HaFrame.NONCE_SIZE + 2 + user.length).put(slaveNonce)
                .putShort((short) user.length).put(user).flip();
        channel.write(HaFrame.TYPE_AUTH, HaFrame.CLASSIC_EPOCH, auth, null);

        channel.readFrame();
        if (channel.type() == HaFrame.TYPE_REFUSED) {
            throw FrameChannel.refusal(channel.body(), master);
        }
        ByteBuffer body = channel.body();
        if (channel.type() != HaFrame.TYPE_CHALLENGE || body.remaining() != HaFrame.CHALLENGE_SIZE) {
            throw new HaProtocolException(HaFrame.REFUSED_AUTHENTICATION, "the master at " + master + " answered"
                    + " AUTH with " + HaFrame.typeName(channel.type()) + " of " + body.remaining() + " bytes, not a"
                    + " CHALLENGE: it does not authenticate its slaves (turn aclEnable on for every broker of the"
                    + " group) or it is not a Wharf master");
        }
        byte[] masterNonce = new byte[HaFrame.NONCE_SIZE];
        body.get(0, masterNonce);
        byte[] masterProof = new byte[HaFrame.PROOF_SIZE];
        body.get(HaFrame.NONCE_SIZE, masterProof);
        Map<String, String> expected = fields(credentials.user(), brokerName, masterNonce, slaveNonce);
        byte[] mine = decode(credentials.signature(MASTER_PROOF_CODE, expected, null, null));
        if (!MessageDigest.isEqual(mine, masterProof)) {
            String reason = "the master at " + master + " could not prove it holds the key of user '"
                    + credentials.user() + "': the user is unknown in its users file, the password in this broker's"
                    + " innerClientAuthenticationCredentials differs, or it is not this group's master. Nothing was"
                    + " replicated";
            channel.refuse(HaFrame.REFUSED_AUTHENTICATION, HaFrame.CLASSIC_EPOCH, "the slave could not verify the"
                    + " master's proof for user '" + credentials.user() + "'");
            throw new HaProtocolException(HaFrame.REFUSED_AUTHENTICATION, reason);
        }
        long now = System.currentTimeMillis();
        Map<String, String> signed = fields(credentials.user(), brokerName, masterNonce, slaveNonce);
        signed.put(RequestSignature.TIMESTAMP, Long.toString(now));
        byte[] proof = decode(credentials.signature(SLAVE_PROOF_CODE, signed, null, null));
        ByteBuffer frame = ByteBuffer.allocate(HaFrame.PROOF_FRAME_SIZE).putLong(now).put(proof).flip();
        channel.write(HaFrame.TYPE_PROOF, HaFrame.CLASSIC_EPOCH, frame, null);
    }

    private static Map<String, String> fields(String user, String brokerName, byte[] masterNonce, byte[] slaveNonce) {
        Map<String, String> fields = new HashMap<>();
        fields.put(RequestSignature.ACCESS_KEY, user);
        fields.put(BROKER, brokerName);
        fields.put(MASTER_NONCE, HexFormat.of().formatHex(masterNonce));
        fields.put(SLAVE_NONCE, HexFormat.of().formatHex(slaveNonce));
        return fields;
    }

    private static byte[] nonce() {
        byte[] nonce = new byte[HaFrame.NONCE_SIZE];
        RANDOM.nextBytes(nonce);
        return nonce;
    }

    private static byte[] decode(String base64) {
        return Base64.getDecoder().decode(base64);
    }
}
